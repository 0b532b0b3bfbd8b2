import { CONTROL_TYPES, ControlTypeId } from '@tessera/core/controls/registry';
import {
  IDENTIFIER_PATTERN,
  POSTGRES_SYSTEM_COLUMN_NAMES,
  SYSTEM_COLUMN_NAMES,
  VIEW_TYPES,
  type TBilingual,
  type TControlDesigner,
  type TDesignerProperty,
  type TPaletteControlType,
  type TPropertyWidget,
} from '@tessera/core/contracts/pages';
import { columnSqlType } from './biz-schema.ts';

// `GET /api/app/control-designer`: what the designer's palette and properties panel need, built
// from the core control-type registry (each type's table field type and names) plus the editable
// properties, widgets, defaults and help texts per type.

const bi = (zh: string, en: string): TBilingual => ({ 'zh-CN': zh, 'en-US': en });

function prop(
  key: string,
  widget: TPropertyWidget,
  title: TBilingual,
  help: TBilingual,
  extra: Partial<Omit<TDesignerProperty, 'key' | 'widget' | 'title' | 'help'>> = {},
): TDesignerProperty {
  return { key, widget, title, help, required: false, ...extra };
}

const CODE = prop('code', 'code', bi('编码', 'Code'), bi(
  '字母开头，只含字母、数字和下划线，最多 40 个字符；同一视图内不区分大小写唯一，发布后成为数据表的列名。',
  'Starts with a letter; letters, digits and _ only, at most 40 characters; unique in the view (case-insensitive). Becomes the column name when published.',
), { required: true });
const TITLE = prop('title', 'text', bi('标题', 'Title'), bi('表单和表格中显示的名称。', 'The label shown in forms and grids.'), { required: true, default: '' });
const PARENT = prop('parentDataControlId', 'controlRef', bi('上级控件', 'Parent control'), bi(
  '把控件放在另一个控件之下（例如级联选择）；有上级的单据编号控件不会在新建时取号。',
  'Nests the control under another one (cascading choices); a document-number control with a parent does not fetch a number on creation.',
));
const DISPLAYED = prop('isDisplayed', 'switch', bi('显示', 'Displayed'), bi('关闭后控件隐藏，但值仍会保存。', 'When off the control is hidden; its value is still saved.'), { default: true });
const EDITABLE = prop('isEdit', 'switch', bi('可编辑', 'Editable'), bi('关闭后控件只读。', 'When off the control is read-only.'), { default: true });
const REQUIRED = prop('extraProperties.required', 'switch', bi('必填', 'Required'), bi('保存时必须有值。', 'A value is needed to save.'), { default: false });
const DEFAULT_TEXT = prop('defaultValue', 'defaultValue', bi('默认值', 'Default value'), bi(
  '新建记录时的值：固定值，或以 = 开头的公式（例如 =TODAY()）。',
  'The value of a new record: a fixed value, or a formula starting with = (for example =TODAY()).',
));
const VALUE_TAKING = prop('valueTakingType', 'select', bi('取值方式', 'Value source'), bi(
  '值由用户输入，或由数据联动/公式计算（计算值在服务器保存时重新计算）。',
  'Typed by the user, or computed by data linkages/formulas (computed values are recomputed by the server on save).',
), { default: 1, choices: [{ value: 1, title: bi('用户输入', 'User input') }, { value: 2, title: bi('计算', 'Computed') }] });
const FORMULA = prop('extraProperties.formula', 'formula', bi('计算公式', 'Formula'), bi(
  '计算控件的值：引用本行控件 {编码}、上级 {编码} 或子表 {视图编码.控件编码}（例如 {Quantity} * {Price}、SUM({Lines.Amount})）。所读控件一变即重算，保存时服务器再算一次；表单中只读。',
  "The calculated control's value over this row's controls {code}, the parent's {code} or a child view's {viewCode.code} (for example {Quantity} * {Price}, SUM({Lines.Amount})). Recomputed whenever what it reads changes, and again by the server on save; read-only in the form.",
), { shownWhen: { key: 'valueTakingType', value: 2 } });
const SUMMARY = prop('extraProperties.summary', 'select', bi('合计行', 'Summary'), bi(
  '在子表和列表的底部显示此列的合计、平均值或计数；列表按筛选出的全部数据计算，不只是当前页。',
  "Shows this column's sum, average or count under child grids and lists; a list totals every row its filter matches, not just the page.",
), {
  choices: [
    { value: '', title: bi('不显示', 'None') },
    { value: 'sum', title: bi('合计', 'Sum') },
    { value: 'avg', title: bi('平均值', 'Average') },
    { value: 'count', title: bi('计数', 'Count') },
  ],
});
const MAX_LENGTH = prop('extraProperties.maxLength', 'number', bi('最大长度', 'Maximum length'), bi('文本最多的字符数，留空不限。', 'The most characters the text may have; empty for no limit.'), { min: 1, max: 100000 });
const MIN = prop('extraProperties.min', 'number', bi('最小值', 'Minimum'), bi('允许的最小值，留空不限。', 'The smallest value allowed; empty for no limit.'));
const MAX = prop('extraProperties.max', 'number', bi('最大值', 'Maximum'), bi('允许的最大值，留空不限。', 'The largest value allowed; empty for no limit.'));
const OPTIONS = prop('options', 'options', bi('选项', 'Options'), bi('下拉或勾选的选项（显示文本与保存值）。', 'The choices offered (label shown and value stored).'), { default: [] });
const ACCURACY = prop('extraProperties.accuracy', 'number', bi('小数位数', 'Decimal places'), bi('显示和保存的小数位数（四舍五入）。', 'Decimal places shown and stored (rounded half away from zero).'), { default: 2, min: 0, max: 10 });
const DATE_TYPE = prop('extraProperties.dateType', 'select', bi('日期格式', 'Date format'), bi('年月、年月日，或完整的日期时间。', 'Year-month, year-month-day, or the full date and time.'), {
  default: 2,
  choices: [
    { value: 1, title: bi('年-月', 'Year-month') },
    { value: 2, title: bi('年-月-日', 'Year-month-day') },
    { value: 3, title: bi('日期时间', 'Date and time') },
  ],
});
const DATE_DEFAULT = prop('defaultValue', 'select', bi('默认值', 'Default value'), bi('新建记录时填入服务器的当前日期，或留空。', "Fills in the server's current date on a new record, or leaves it empty."), {
  choices: [
    { value: '', title: bi('无', 'None') },
    { value: '1', title: bi('系统日期', 'Server date') },
  ],
});
const BOOL_DEFAULT = prop('defaultValue', 'switch', bi('默认值', 'Default value'), bi('新建记录时是否默认勾选。', 'Whether a new record starts checked.'), { default: false });
const DOC_NO = prop('docNoOccasion', 'select', bi('取号时机', 'Numbering'), bi(
  '“新建时取号”：新建记录时从单据编号规则取下一个编号（唯一且不跳号）。',
  '"On creation": a new record takes the next number of the document-number rule (unique, no gaps).',
), { default: 0, choices: [{ value: 0, title: bi('不自动取号', 'Not automatic') }, { value: 1, title: bi('新建时取号', 'On creation') }] });
const DOC_RULE = prop('extraProperties.documentNumberRuleId', 'documentNumberRule', bi('单据编号规则', 'Document-number rule'), bi('编号来自哪条规则。', 'The rule the numbers come from.'));
const DATA_SOURCE = prop('extraProperties.dataSourceId', 'dataSource', bi('数据源', 'Data source'), bi('从哪个已发布页面的视图中选择数据。', 'The view of a published page the data is picked from.'));
const DATA_SOURCE_METHOD = prop('extraProperties.dataSourceMethod', 'dataSourceMethod', bi('打开方式', 'Open as'), bi('下拉选择，或弹出窗口搜索选择。', 'A drop-down, or a pop-up window with search.'), {
  default: 1,
  choices: [{ value: 1, title: bi('下拉', 'Drop-down') }, { value: 2, title: bi('弹出窗口', 'Pop-up window') }],
});
const DATA_SOURCE_TITLE = prop('extraProperties.dataSourceTitle', 'text', bi('显示字段', 'Display field'), bi('选中后显示数据源的哪个字段。', 'Which field of the data source is shown once picked.'));
const MAP_FIELDS = prop('extraProperties.mapFields', 'mapFields', bi('字段映射', 'Field mapping'), bi(
  '选中一条数据后，把数据源字段（源）写入本视图的控件（目标）；类型需兼容。',
  'After a pick, copies data-source fields (source) into controls of this view (target); types must be compatible.',
), { default: [] });
const JOIN_CONDITIONS = prop('extraProperties.joinConditions', 'joinConditions', bi('关联条件', 'Join conditions'), bi(
  '只显示满足条件的数据；值可以是以 = 开头、引用本页面控件的公式。',
  'Shows only the rows that match; a value may be a formula starting with = over this page\'s controls.',
), { default: [] });
const PARENT_CODE = prop('extraProperties.parentCode', 'controlRef', bi('上级编码', 'Parent code'), bi('级联时按这个控件的值过滤数据源。', 'Cascading: filters the data source by this control\'s value.'));
const PICKER_DEFAULT = prop('defaultValue', 'select', bi('默认值', 'Default value'), bi('新建记录时填入当前用户或其组织机构。', "Fills in the current user or their organisation unit on a new record."), {
  choices: [
    { value: '', title: bi('无', 'None') },
    { value: '2', title: bi('当前用户', 'Current user') },
    { value: '3', title: bi('当前用户的组织机构', "Current user's unit") },
  ],
});
const PICKER_TYPE = prop('extraProperties.selectionType', 'select', bi('选择对象', 'Pick from'), bi('可以选择的对象类型。', 'What can be picked.'), {
  default: 3,
  choices: [
    { value: 3, title: bi('人员', 'Users') },
    { value: 1, title: bi('组织机构', 'Organisation units') },
    { value: 4, title: bi('角色', 'Roles') },
  ],
});
const MAX_FILES = prop('extraProperties.maxFiles', 'number', bi('最多文件数', 'Most files'), bi('一条记录在此控件中最多保存的文件数（1–100）。', 'The most files a record keeps in this control (1–100).'), { default: 10, min: 1, max: 100 });
const ACCEPT = prop('extraProperties.accept', 'text', bi('允许的扩展名', 'Accepted extensions'), bi(
  '只接受这些扩展名的文件，用逗号分隔（例如 .pdf,.docx）；留空则接受除程序、脚本、网页和 SVG 以外的文件。单个文件最大 20 MB（可配置）。',
  'Only files with these extensions, separated by commas (for example .pdf,.docx); empty accepts any file but programs, scripts, web pages and SVG. At most 20 MB a file (configurable).',
));
const CAPITALS = prop('extraProperties.capitals', 'switch', bi('显示大写金额', 'Show Chinese capitals'), bi(
  '在表单中金额下方显示人民币大写（如 壹仟贰佰叁拾肆元伍角整）。',
  'Shows the amount in Chinese capitals under the input in the form (for example 壹仟贰佰叁拾肆元伍角整).',
), { default: false });
const MULTIPLE = prop('extraProperties.multiple', 'switch', bi('多选', 'Multiple'), bi('允许选择多个。', 'Allows picking several.'), { default: false });

const QUICK_SEARCH = prop('extraProperties.quickSearch', 'switch', bi('快速查询', 'Quick search'), bi(
  '在列表上方的快速查询行中提供此字段（子表字段按“有明细满足”查询）；都不勾选时显示前几个文本、选项和日期字段。',
  'Offers this field in the quick-search row above the list (a child grid\'s field finds the records having such a line); with none marked, the first few text, option and date fields are offered.',
), { default: false });

const COMMON = [CODE, TITLE, PARENT, DISPLAYED, EDITABLE, REQUIRED, VALUE_TAKING, FORMULA, QUICK_SEARCH];
const SOURCE_QUERY = prop('extraProperties.sourceQuery', 'sourceQuery', bi('数据源查询', 'Data-source query'), bi(
  '从外部数据源的已保存查询中取数据（代替页面视图或选项）：选择查询、保存值的列，并为查询参数给出固定值或以 = 开头的公式。',
  "Takes the data from a saved query of an external data source (instead of a page view or options): pick the query, the column whose value is stored, and give each query parameter a fixed value or a formula starting with =.",
));
const DEFAULT_QUERY = prop('extraProperties.defaultSourceQuery', 'defaultSourceQuery', bi('默认值查询', 'Default from a query'), bi(
  '新建记录时，从数据源的已保存查询的第一行取这一列作为默认值（代替上面的默认值）；查询参数可以是固定值或以 = 开头的公式。用户改过的值不会被覆盖。',
  "On a new record, takes this column of the first row of a saved query of a data source as the default (instead of the default above); each query parameter is a fixed value or a formula starting with =. A value the user has changed is not replaced.",
));
const LOOKUP = [DATA_SOURCE, SOURCE_QUERY, DATA_SOURCE_METHOD, DATA_SOURCE_TITLE, MAP_FIELDS, JOIN_CONDITIONS, PARENT_CODE];

const BY_TYPE: Record<number, { group: TPaletteControlType['group']; help: TBilingual; properties: TDesignerProperty[] }> = {
  [ControlTypeId.Text]: { group: 'basic', help: bi('单行文本。', 'A line of text.'), properties: [DEFAULT_TEXT, DEFAULT_QUERY, MAX_LENGTH] },
  [ControlTypeId.SingleChoice]: { group: 'choice', help: bi('从选项中选一个（下拉）。', 'One of the options (drop-down).'), properties: [OPTIONS, SOURCE_QUERY, DEFAULT_TEXT, DEFAULT_QUERY] },
  [ControlTypeId.SingleChoiceAlt]: { group: 'choice', help: bi('从选项中选一个（按钮组）。', 'One of the options (buttons).'), properties: [OPTIONS, SOURCE_QUERY, DEFAULT_TEXT, DEFAULT_QUERY] },
  [ControlTypeId.Integer]: { group: 'basic', help: bi('整数，新建时默认 0。', 'A whole number; 0 on a new record.'), properties: [DEFAULT_TEXT, DEFAULT_QUERY, MIN, MAX, SUMMARY] },
  [ControlTypeId.Decimal]: { group: 'basic', help: bi('小数（精确存储，不用浮点）。', 'A decimal number (stored exactly, never as a float).'), properties: [ACCURACY, DEFAULT_TEXT, DEFAULT_QUERY, MIN, MAX, SUMMARY] },
  [ControlTypeId.MultilineText]: { group: 'basic', help: bi('多行文本，保留换行；表格中显示首行。', 'Text of several lines, line breaks kept; grids show the first line.'), properties: [DEFAULT_TEXT, DEFAULT_QUERY, MAX_LENGTH] },
  [ControlTypeId.RichText]: { group: 'basic', help: bi('带格式的文本（加粗、列表、链接等）；保存时清除不安全的内容，列表中显示纯文本。', 'Formatted text (bold, lists, links…); unsafe content is removed on save; lists show the plain text.'), properties: [] },
  [ControlTypeId.Currency]: { group: 'basic', help: bi('金额：千分位显示，默认 2 位小数，可显示人民币大写。', 'An amount of money: thousands separators, 2 decimal places by default, Chinese capitals on demand.'), properties: [ACCURACY, CAPITALS, DEFAULT_TEXT, DEFAULT_QUERY, MIN, MAX, SUMMARY] },
  [ControlTypeId.Date]: { group: 'basic', help: bi('日期或日期时间。', 'A date or date and time.'), properties: [DATE_TYPE, DATE_DEFAULT, DEFAULT_QUERY] },
  [ControlTypeId.Boolean]: { group: 'basic', help: bi('是 / 否。', 'Yes / no.'), properties: [BOOL_DEFAULT, DEFAULT_QUERY] },
  [ControlTypeId.MultiSelect]: { group: 'choice', help: bi('从选项中选多个。', 'Several of the options.'), properties: [OPTIONS, SOURCE_QUERY] },
  [ControlTypeId.MultiValue]: { group: 'choice', help: bi('多个值的列表。', 'A list of values.'), properties: [OPTIONS] },
  [ControlTypeId.Lookup]: { group: 'lookup', help: bi('从另一个页面的数据中选择，并把字段映射到本页面。', "Picks a row of another page's data and maps its fields into this page."), properties: LOOKUP },
  [ControlTypeId.DocumentNumber]: { group: 'basic', help: bi('文本，或按单据编号规则自动取号。', 'Text, or a number from a document-number rule.'), properties: [DOC_NO, DOC_RULE, DEFAULT_TEXT, MAX_LENGTH] },
  [ControlTypeId.Id]: { group: 'system', help: bi('另一条数据的标识（带列表字段 编码Array）。', 'The id of another record (with a list field codeArray).'), properties: LOOKUP },
  [ControlTypeId.Ids]: { group: 'system', help: bi('多条数据的标识。', 'Ids of several records.'), properties: LOOKUP },
  [ControlTypeId.Attachment]: { group: 'basic', help: bi('上传的附件：下载时总是作为文件保存。', 'Uploaded files; always downloaded, never opened in the page.'), properties: [MAX_FILES, ACCEPT] },
  [ControlTypeId.Image]: { group: 'basic', help: bi('上传的图片（PNG、JPEG、GIF、WebP，每张最大 10 MB），显示缩略图。', 'Uploaded images (PNG, JPEG, GIF, WebP, at most 10 MB each), shown as thumbnails.'), properties: [MAX_FILES] },
  [ControlTypeId.UserOrgPicker]: { group: 'lookup', help: bi('选择人员、组织机构或角色。', 'Picks users, organisation units or roles.'), properties: [PICKER_TYPE, MULTIPLE, PICKER_DEFAULT] },
};

const VIEW_CODE = prop('code', 'code', bi('编码', 'Code'), bi('视图编码，公式中用 {视图编码.控件编码} 引用；页面内唯一。', 'The view code; formulas use {viewCode.controlCode}; unique in the page.'), { required: true });
const VIEW_TITLE = prop('title', 'text', bi('标题', 'Title'), bi('视图的标题。', 'The view title.'), { default: '' });
const VIEW_PARENT = prop('parentViewControlId', 'viewRef', bi('上级视图', 'Parent view'), bi('子表的上级视图：每行属于上级视图的一条记录。', 'For child grids: each row belongs to a record of this view.'));
const VIEW_FK = prop('associateForeignKeyCode', 'controlRef', bi('关联外键', 'Foreign key'), bi(
  '子表中指向上级记录的字段：ParentViewDataId（系统字段，默认），或本视图的一个控件（同时写入上级记录的 Id）。',
  "The child's key to its parent record: ParentViewDataId (system column, default), or a control of this view that also receives the parent record's Id.",
), { default: 'ParentViewDataId' });

const BUTTON_ACTIONS: TControlDesigner['buttonActions'] = [
  { code: 'add', title: bi('新增', 'Add'), scope: 'both', enabled: true },
  { code: 'edit', title: bi('编辑', 'Edit'), scope: 'both', enabled: true },
  { code: 'delete', title: bi('删除', 'Delete'), scope: 'both', enabled: true },
  { code: 'save', title: bi('保存', 'Save'), scope: 'page', enabled: true },
  { code: 'copyRow', title: bi('复制行', 'Copy row'), scope: 'view', enabled: true },
  { code: 'import', title: bi('导入', 'Import'), scope: 'both', enabled: true },
  { code: 'export', title: bi('导出', 'Export'), scope: 'both', enabled: true },
  { code: 'print', title: bi('打印', 'Print'), scope: 'page', enabled: false },
  { code: 'submitForApproval', title: bi('提交审批', 'Submit for approval'), scope: 'page', enabled: false },
  { code: 'runProcedure', title: bi('运行过程', 'Run procedure'), scope: 'page', enabled: true },
  { code: 'custom', title: bi('自定义（执行赋值）', 'Custom (runs assignments)'), scope: 'both', enabled: true },
];

const RUNS_PROCEDURE = { shownWhen: { key: 'buttonType', value: 'runProcedure' } } as const;

const BUTTON_PROPERTIES: TDesignerProperty[] = [
  prop('code', 'code', bi('编码', 'Code'), bi('按钮编码，用作权限编码 Biz.页面.按钮；页面内唯一，不能是 Access 或 Field。', 'The button code, used in the permission code Biz.page.button; unique in the page; not Access or Field.')),
  prop('title', 'text', bi('标题', 'Title'), bi('按钮上的文字。', 'The text on the button.'), { required: true, default: '' }),
  prop('buttonType', 'buttonAction', bi('动作', 'Action'), bi('内置动作，或执行赋值的自定义动作。', 'A built-in action, or a custom action running assignments.'), { required: true, default: 'custom' }),
  prop('assignments', 'assignments', bi('赋值', 'Assignments'), bi('自定义动作：依次把公式结果写入控件。', 'Custom actions: writes each formula result into its control, in order.'), { default: [] }),
  prop('procedureId', 'procedure', bi('过程', 'Procedure'), bi('数据工厂中要运行的过程；只能选择你自己有权运行的过程。', 'The data factory procedure to run; only procedures you may run yourself.'), { ...RUNS_PROCEDURE, required: true }),
  prop('procedureParameters', 'procedureParameters', bi('过程参数', 'Procedure parameters'), bi('每个参数的值：对保存后的记录计算的公式，例如 {amount} * 2；未填的参数取过程的默认值。', 'Each parameter\'s value: a formula over the saved record, such as {amount} * 2; a parameter left out takes the procedure\'s default.'), { ...RUNS_PROCEDURE, default: [] }),
  prop('procedureTiming', 'select', bi('运行时机', 'When it runs'), bi('保存时：与保存在同一事务中，过程出错则保存也撤销。保存后：先保存，过程出错时记录仍已保存。', 'In the save: one transaction with the save; if the procedure fails, the save is undone. After the save: the record is saved first and stays saved if the procedure fails.'), {
    ...RUNS_PROCEDURE,
    default: 'afterSave',
    choices: [
      { value: 'afterSave', title: bi('保存后', 'After the save') },
      { value: 'inSave', title: bi('保存时（同一事务）', 'In the save (one transaction)') },
    ],
  }),
];

export function controlDesigner(): TControlDesigner {
  const controlTypes: TPaletteControlType[] = [...CONTROL_TYPES.values()].map((type) => {
    const specific = BY_TYPE[type.code] ?? { group: 'basic' as const, help: bi(type.zh, type.en), properties: [] };
    return {
      code: type.code,
      name: type.name,
      title: bi(type.zh, type.en),
      help: specific.help,
      tableFieldType: type.tableFieldType,
      sqlType: columnSqlType(type.tableFieldType),
      group: specific.group,
      properties: [...COMMON, ...specific.properties],
    };
  });
  return {
    controlTypes,
    viewTypes: [
      { code: VIEW_TYPES.form, name: 'form', title: bi('表单视图', 'Form view'), help: bi('一条记录的表单；顶层表单是主表。', 'A form for one record; a top-level form is the master.'), properties: [VIEW_CODE, VIEW_TITLE, VIEW_PARENT, VIEW_FK] },
      { code: VIEW_TYPES.grid, name: 'grid', title: bi('表格视图', 'Grid view'), help: bi('子表：上级记录的多行明细。', "A child grid: the detail rows of the parent record."), properties: [VIEW_CODE, VIEW_TITLE, VIEW_PARENT, VIEW_FK] },
      { code: VIEW_TYPES.container, name: 'container', title: bi('标签页/分组', 'Tabs / group'), help: bi('只用于布局其他视图，没有自己的数据。', 'Lays out other views; holds no data of its own.'), properties: [VIEW_CODE, VIEW_TITLE] },
    ],
    buttonActions: BUTTON_ACTIONS,
    buttonProperties: BUTTON_PROPERTIES,
    codePattern: IDENTIFIER_PATTERN.source,
    reservedCodes: [...SYSTEM_COLUMN_NAMES, ...POSTGRES_SYSTEM_COLUMN_NAMES],
  };
}
