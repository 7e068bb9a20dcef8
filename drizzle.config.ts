import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/base/db/schema.ts',
  out: './migrations',
});
