/**
 * The system module's public entry (the current user, the server date, QR codes): the only file
 * other modules import from it. It owns no table.
 */
export { qrCodeRoutes } from './qr-code.routes.ts';
export { systemRoutes } from './system.routes.ts';
