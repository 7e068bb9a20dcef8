-- buyers:read (issue 51): without it buyers' names, phones, e-mails and street addresses are
-- masked. Every scoped key and account role made before it saw them whole; they keep seeing them,
-- so no integration finds masked data overnight. Built-in roles are code (domain/access/roles.ts).
UPDATE "api_keys" SET "scopes" = array_append("scopes", 'buyers:read')
 WHERE "scopes" IS NOT NULL AND NOT ('buyers:read' = ANY("scopes"));
--> statement-breakpoint
UPDATE "custom_roles" SET "permissions" = array_append("permissions", 'buyers:read')
 WHERE NOT ('buyers:read' = ANY("permissions"));
