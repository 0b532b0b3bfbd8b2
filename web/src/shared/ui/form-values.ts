/**
 * A form's values once its rules pass, or null when they do not. antd's `validateFields()` rejects
 * when a field is invalid; the form already shows the messages at its fields, so that is no error
 * — awaited bare, it became an unhandled rejection that the front-end log counted as an exception.
 * Every form submits through this one pattern: `const values = await validValues(form); if (!values) return;`.
 */
export async function validValues<T>(form: { validateFields(): Promise<T> }): Promise<T | null> {
  try {
    return await form.validateFields();
  } catch (error) {
    if (isValidationFailure(error)) return null;
    throw error;
  }
}

/** antd's rejection for invalid fields: `{ errorFields: [...], values, outOfDate }`. */
export const isValidationFailure = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && Array.isArray((error as { errorFields?: unknown }).errorFields);
