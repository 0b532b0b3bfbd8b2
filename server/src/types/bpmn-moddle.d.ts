// The part of bpmn-moddle's API the workflow module uses (the package ships element types only,
// under `bpmn-moddle/types`, not a declaration of its entry).
declare module 'bpmn-moddle' {
  /** A model element: its `$type` (`bpmn:UserTask`) and its properties by name. */
  export interface ModdleElement {
    $type: string;
    $parent?: ModdleElement;
    [property: string]: unknown;
  }
  export interface ParseResult {
    rootElement: ModdleElement;
    warnings: { message: string }[];
  }
  export class BpmnModdle {
    constructor(additionalPackages?: Record<string, unknown>, options?: Record<string, unknown>);
    create(type: string, properties?: Record<string, unknown>): ModdleElement;
    fromXML(xml: string, typeName?: string | Record<string, unknown>, options?: Record<string, unknown>): Promise<ParseResult>;
    toXML(element: ModdleElement, options?: { format?: boolean; preamble?: boolean }): Promise<{ xml: string }>;
  }
}
