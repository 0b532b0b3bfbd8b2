import { ApiError } from '../../../shared/api/client.ts';

/** The server's message of a failed call (first validation message, else the error's). */
export const errorText = (err: unknown) => (err instanceof ApiError && err.validationErrors[0] ? err.validationErrors[0].message : (err as Error).message);
