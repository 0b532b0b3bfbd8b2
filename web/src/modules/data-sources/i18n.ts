import { registerTexts } from '../../shared/i18n/i18n.ts';
import { dataSourceTexts } from './texts.ts';

// The data sources screens' texts (namespace `dataSources`); every screen file imports this once.
registerTexts('dataSources', dataSourceTexts);
