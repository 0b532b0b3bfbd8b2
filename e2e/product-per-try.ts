import { afterAll, beforeAll } from 'vitest';
import { startProduct, type Product, type StartOptions } from './product.ts';

/**
 * The product of a spec whose journey creates fixed codes (pages, users): started before the
 * spec's tests (handed to `use`) and stopped after them. A retried journey (vitest.config.ts) calls
 * `forThisTry()` first and gets a fresh product (handed to `use` again), since the first try's data
 * would collide with its own.
 */
export function productPerTry(use: (product: Product) => void, options: StartOptions = {}) {
  let product: Product | undefined;
  let tries = 0;
  const start = async () => {
    product = await startProduct(options);
    use(product);
  };
  beforeAll(start);
  afterAll(() => product?.stop());
  return {
    async forThisTry(): Promise<void> {
      if (tries++ === 0) return;
      await product?.stop();
      await start();
    },
  };
}
