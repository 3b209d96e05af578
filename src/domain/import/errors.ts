/** Why a file cannot be imported at all: said in one sentence to the person, and nothing is changed. */
export class ImportFileError extends Error {
  override readonly name = "ImportFileError";
}
