/** The content type of an answer a route writes as JSON text itself, bypassing Fastify's serialiser. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
