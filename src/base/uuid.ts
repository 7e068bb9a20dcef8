/**
 * A UUID as PostgreSQL's uuid type surely takes it: hyphenated hex. Anything else that reaches a
 * uuid column (ajv-formats' uuid also passes a `urn:uuid:` prefix) fails there, as a 500.
 */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
