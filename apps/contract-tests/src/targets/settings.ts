// How a setting of the live target is named outside the code: each has one name (its key in the
// --config file), and its environment variable is that name in CONSTANT_CASE under FORMS_API_.

/** `tokenWithoutFormsRead` -> `FORMS_API_TOKEN_WITHOUT_FORMS_READ`. */
export function envVariableOf(setting: string): string {
  return `FORMS_API_${setting.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}`;
}

/** How a secret held in a setting is written in reports and curl repros: its variable, for the shell. */
export function placeholderOf(setting: string): string {
  return `$${envVariableOf(setting)}`;
}
