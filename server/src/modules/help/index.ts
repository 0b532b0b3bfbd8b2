/**
 * The help module's public entry: the only file other modules import from it.
 * Owns the table `help_documents` and the uploaded images under DATA_DIR/files/help.
 */
export { helpRoutes } from './help.routes.ts';
