import { registerTexts } from '../../i18n/i18n.ts';

registerTexts('filterBuilder', {
  'zh-CN': {
    add: '添加条件',
    field: '字段',
    operator: '条件',
    value: '值',
    link: '关系',
    and: '并且',
    or: '或者',
    remove: '删除条件',
    severalValues: '多个值用逗号分隔',
    twoValues: '两个值用逗号分隔',
    empty: '没有条件（全部数据）',
    formulaHint: '以 = 开头的值是公式',
  },
  'en-US': {
    add: 'Add condition',
    field: 'Field',
    operator: 'Operator',
    value: 'Value',
    link: 'Link',
    and: 'AND',
    or: 'OR',
    remove: 'Remove condition',
    severalValues: 'Several values, separated by commas',
    twoValues: 'Two values, separated by a comma',
    empty: 'No conditions (all data)',
    formulaHint: 'A value starting with = is a formula',
  },
});
