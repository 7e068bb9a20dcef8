/**
 * A rule of a field's form that its service checks, beside the request's other problems, rather
 * than the validator: a pincode's six digits, a phone number's form, a calendar date. Checked in
 * the service, a bad value is named in one 400 with every other bad field (a pincode that is not
 * in the directory, a missing address line); checked by the validator, it would stop the request
 * before the service saw the rest. The published document states it as the schema's own keywords
 * (publishStatedRules), so that a client's validator refuses what the server refuses.
 */
export const STATED_RULE = 'x-stated-rule';

/** Keywords of JSON Schema the service enforces for this schema: `pattern`, `format`, `minimum`, `dependentRequired`, … */
export const statedRule = (rule: Record<string, unknown>) => ({ [STATED_RULE]: rule });

/**
 * A copy of the document with every stated rule written as the keywords of the schema that carries
 * it. A copy: the document's schemas may be the very objects the routes' validators compile later,
 * which must not enforce them.
 */
export function publishStatedRules<T>(document: T): T {
  const published = structuredClone(document);
  const pending: unknown[] = [published];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      pending.push(...node);
      continue;
    }
    const schema = node as Record<string, unknown>;
    const rule = schema[STATED_RULE];
    if (rule !== undefined) {
      delete schema[STATED_RULE];
      Object.assign(schema, rule);
    }
    pending.push(...Object.values(schema));
  }
  return published;
}
