import { registerTexts } from '../../../shared/i18n/i18n.ts';

registerTexts('printRuntime', {
  'zh-CN': {
    print: '打印',
    printSelected: '打印选中',
    chooseTemplate: '选择打印模板',
    printing: '正在生成打印文件…',
    title: '打印预览',
    titleMany: '打印预览（{{count}} 条记录）',
    download: '下载',
    printNow: '打印',
    openTab: '在新标签页打开',
    selectFirst: '请先选择要打印的记录',
    printedTimes: '已打印 {{count}} 次',
    lastPrinted: '最后打印：{{user}}，{{time}}（{{template}}）',
    neverPrinted: '未打印',
  },
  'en-US': {
    print: 'Print',
    printSelected: 'Print selected',
    chooseTemplate: 'Choose a print template',
    printing: 'Making the PDF…',
    title: 'Print preview',
    titleMany: 'Print preview ({{count}} records)',
    download: 'Download',
    printNow: 'Print',
    openTab: 'Open in a new tab',
    selectFirst: 'Select the records to print first',
    printedTimes: 'Printed {{count}} time(s)',
    lastPrinted: 'Last printed by {{user}} at {{time}} ({{template}})',
    neverPrinted: 'Not printed yet',
  },
});
