// `npm start`, `npm run start:dev` and `npm run admin` on a laptop: without DATABASE_URL they run
// the embedded PostgreSQL, a development setup, so NODE_ENV defaults to development there. The
// service itself treats an unset NODE_ENV as production; this preload is what asks for development.
if (!process.env.NODE_ENV && !process.env.DATABASE_URL) process.env.NODE_ENV = 'development';
