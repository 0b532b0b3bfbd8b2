import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
let admin: string;
const URL = '/api/app/qr-code/qr-code';

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
});
afterAll(() => t.close());

const qr = (query: Record<string, string | number | undefined>, token: string | null = admin, lang = 'zh-CN') =>
  t.call(token, {
    method: 'GET',
    url: `${URL}?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`,
    headers: { 'accept-language': lang },
  });

/** Width and height from a PNG's IHDR chunk. */
const pngSize = (b: Buffer) => ({ width: b.readUInt32BE(16), height: b.readUInt32BE(20) });

describe('QR codes', () => {
  it('draws a PNG of the requested size', async () => {
    const res = await qr({ content: 'https://tessera.example/r/0190a0a0-0000-7000-8000-000000000001', size: 300 });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(pngSize(res.rawPayload)).toEqual({ width: 300, height: 300 });
    const small = await qr({ content: '单据 SO-0001', size: 64, margin: 0, errorCorrectionLevel: 'H' });
    expect(pngSize(small.rawPayload)).toEqual({ width: 64, height: 64 });
  });

  it('draws an SVG with the chosen colours', async () => {
    const res = await qr({ content: 'hello', format: 'svg', size: 200, dark: '#112233', light: '#fafafa' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('image/svg+xml');
    expect(res.body.startsWith('<svg')).toBe(true);
    expect(res.body).toContain('width="200"');
    expect(res.body).toContain('#112233');
    expect(res.body).toContain('#fafafa');
  });

  it('answers 400 when the content is too long for a QR code at the level', async () => {
    // 2953 bytes is the binary limit at level L; at H it is 1273.
    expect((await qr({ content: 'x'.repeat(1273), errorCorrectionLevel: 'H' })).statusCode).toBe(200);
    const tooLong = await qr({ content: 'x'.repeat(1274), errorCorrectionLevel: 'H' });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.validationErrors[0].members).toEqual(['querystring.content']);
    expect(tooLong.json().error.message).toContain('内容过长');
    const en = await qr({ content: 'x'.repeat(3000), errorCorrectionLevel: 'L', format: 'svg' }, admin, 'en-US');
    expect(en.statusCode).toBe(400);
    expect(en.json().error.message).toContain('too long');
    expect((await qr({ content: '9'.repeat(7090) })).statusCode).toBe(400);
  });

  it('rejects bad parameters and anonymous callers', async () => {
    for (const query of [{} as Record<string, string | number>, { content: '' }, { content: 'a', size: 10 }, { content: 'a', size: 5000 }, { content: 'a', margin: -1 }, { content: 'a', errorCorrectionLevel: 'X' }, { content: 'a', format: 'gif' }, { content: 'a', dark: 'red' }]) {
      expect((await qr(query)).statusCode, JSON.stringify(query)).toBe(400);
    }
    expect((await qr({ content: 'a' }, null)).statusCode).toBe(401);
  });
});
