/** A stand-in for the CustomFunctions global that Excel's runtime provides. */
export class FunctionError {
  constructor(readonly code: string, readonly message?: string) {}
}

export function installCustomFunctionsStub(): void {
  (globalThis as unknown as { CustomFunctions: unknown }).CustomFunctions = {
    Error: FunctionError,
    ErrorCode: { invalidValue: "#VALUE!", notAvailable: "#N/A" },
  };
}

export const invocation = (preview = false) => ({ isInValuePreview: preview ? "true" : undefined }) as unknown as CustomFunctions.Invocation;
