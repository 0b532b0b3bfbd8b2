/**
 * The path the product is served under: `` at the root, `/erp` behind a proxy's sub-path
 * (`BASE_PATH` on the server). The app is always loaded as `<base>/` or `<base>/index.html`
 * (routes live in the hash), so the page's own directory is the base — no inline script or
 * server-written setting needed, and it holds whatever prefix the proxy put in front.
 */
export const BASE_PATH = new URL('.', window.location.href).pathname.replace(/\/$/, '');
