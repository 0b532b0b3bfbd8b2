import { registerTexts } from '../../shared/i18n/i18n.ts';
import { dataFactoryTexts } from './texts.ts';

// The data factory screens' texts (namespace `dataFactory`); every screen file imports this once.
registerTexts('dataFactory', dataFactoryTexts);
