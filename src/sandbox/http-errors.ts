/** Every error the sandbox answers is JSON `{"status": <int>, "error": "<message>"}` (DESIGN.md). */

export class ApiError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 405 | 413 | 415 | 429 | 500,
    message: string,
  ) {
    super(message);
  }
}

export function errorBody(status: number, message: string): { status: number; error: string } {
  return { status, error: message };
}

export const notFound = (what: string, id: string) => new ApiError(404, `${what} ${id} not found.`);
export const badRequest = (message: string) => new ApiError(400, message);
