import { registerTexts } from '../../i18n/i18n.ts';

registerTexts('formulaEditor', {
  'zh-CN': {
    test: '测试公式',
    sampleValues: '示例值',
    noReferences: '公式没有引用控件',
    listHint: '多行用英文逗号分隔',
    run: '计算',
    result: '结果',
    error: '错误',
    fixFirst: '请先修正公式中的错误',
    empty: '请输入公式',
  },
  'en-US': {
    test: 'Test the formula',
    sampleValues: 'Sample values',
    noReferences: 'The formula refers to no control',
    listHint: 'Rows separated by commas',
    run: 'Evaluate',
    result: 'Result',
    error: 'Error',
    fixFirst: 'Fix the errors in the formula first',
    empty: 'Enter a formula',
  },
});
