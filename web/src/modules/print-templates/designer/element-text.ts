import type { TPrintFormat, TPrintSource } from '@tessera/core/contracts/print-templates';
import dayjs from 'dayjs';

/** The texts the canvas shows for what only exists when printing (page numbers, the printing user). */
export interface SampleTexts {
  pageNumber: Record<'zh' | 'slash' | 'en' | 'current', string>;
  printUser: string;
  formula(formula: string): string;
}

/**
 * What the canvas writes for a source: fixed text as it is, a field as its title in braces
 * (`{订单金额}`), a page number and the print time as samples (now, in the pattern).
 */
export function sourceSample(source: TPrintSource, fieldTitle: (code: string) => string, texts: SampleTexts, now: Date = new Date()): string {
  switch (source.kind) {
    case 'static':
      return source.text;
    case 'field':
      return `{${fieldTitle(source.field) || source.field}}`;
    case 'formula':
      return texts.formula(source.formula);
    case 'pageNumber':
      return texts.pageNumber[source.pattern];
    case 'printTime':
      return dayjs(now).format(source.pattern);
    case 'printUser':
      return texts.printUser;
  }
}

/** A sample number written in a column's format (table sample rows). */
export function formatSample(format: TPrintFormat, value: number, now: Date = new Date()): string {
  switch (format.kind) {
    case 'none':
      return String(value);
    case 'date':
      return dayjs(now).format(format.pattern);
    case 'number': {
      const fixed = format.precision === null ? String(value) : value.toFixed(format.precision);
      if (!format.thousands) return fixed;
      const [whole, fraction] = fixed.split('.');
      return `${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction !== undefined ? `.${fraction}` : ''}`;
    }
    case 'chineseAmount':
      return '壹仟贰佰叁拾肆元伍角';
  }
}
