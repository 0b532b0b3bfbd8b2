/** [name, signature, zh-CN description, en-US description, example, example result as displayed] */
export type FunctionDocRow = [name: string, signature: string, zh: string, en: string, example: string, result: string];
