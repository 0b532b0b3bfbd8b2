import { useEffect, useState } from 'react';

/** spec §2: Mobile at max width 600px, Tablet at 992px, Desktop otherwise. */
export type Device = 'Mobile' | 'Tablet' | 'Desktop';
export const MOBILE_MAX = 600;
export const TABLET_MAX = 992;
/** spec §9: resize handling throttled to 100 ms. */
export const RESIZE_THROTTLE_MS = 100;

export const deviceOf = (width: number): Device => (width <= MOBILE_MAX ? 'Mobile' : width <= TABLET_MAX ? 'Tablet' : 'Desktop');

/** Calls `fn` at most once per `wait` ms, and once more after the last call (so the final size counts). */
export function throttle<A extends unknown[]>(fn: (...args: A) => void, wait: number): ((...args: A) => void) & { cancel(): void } {
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let pending: A | null = null;
  const run = () => {
    last = Date.now();
    timer = null;
    if (pending) fn(...pending);
    pending = null;
  };
  const throttled = (...args: A) => {
    pending = args;
    const remaining = wait - (Date.now() - last);
    if (remaining <= 0) run();
    else if (!timer) timer = setTimeout(run, remaining);
  };
  throttled.cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  return throttled;
}

export function useWindowWidth(): number {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const onResize = throttle(() => setWidth(window.innerWidth), RESIZE_THROTTLE_MS);
    window.addEventListener('resize', onResize);
    return () => {
      onResize.cancel();
      window.removeEventListener('resize', onResize);
    };
  }, []);
  return width;
}

/** The device class, also set on the app root (`#root.app-device-mobile` …). */
export function useDevice(): Device {
  const device = deviceOf(useWindowWidth());
  useEffect(() => {
    const root = document.getElementById('root');
    if (!root) return;
    root.classList.remove('app-device-mobile', 'app-device-tablet', 'app-device-desktop');
    root.classList.add(`app-device-${device.toLowerCase()}`);
    root.dataset.device = device;
  }, [device]);
  return device;
}
