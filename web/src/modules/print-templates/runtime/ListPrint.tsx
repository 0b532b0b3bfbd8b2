export { ListPrint as default } from './PrintButton.tsx';
