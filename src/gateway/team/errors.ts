/** Team mode's own errors: `kind` says whether the operator (configuration) or the database is to blame. */
export class TeamError extends Error {
  override readonly name = "TeamError";
  constructor(readonly kind: "config" | "database" | "audit", message: string) {
    super(message);
  }
}
