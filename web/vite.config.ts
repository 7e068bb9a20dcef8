import { defineConfig } from 'vite';

// The panel is served by the API process at /app (src/panel.ts). `npm run dev:web` serves it from
// Vite instead, passing API and sign-in calls to a running server (DAKIYA_URL, 127.0.0.1:3000 by
// default).
const api = process.env.DAKIYA_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root: import.meta.dirname,
  base: '/app/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Modern browsers only: the merchants' operations desks, not customers' phones of 2015.
    target: 'es2022',
    reportCompressedSize: false,
    rolldownOptions: {
      // React Server Components' "use client" markers mean nothing in a client-only bundle.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  server: {
    host: '127.0.0.1',
    proxy: { '/custom': api, '/panel': api, '/public': api },
  },
});
