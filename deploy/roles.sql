-- A least-privilege role for `photomap serve`, `places`, `import` and the rest: it reads and writes
-- photomap's rows and creates nothing. Run as the database's owner (or a superuser), after
-- `photomap db migrate`:
--   psql -v role=photomap_app -v password='…' -d photomap -f deploy/roles.sql
-- then give the servers postgresql://photomap_app:…@host/photomap. Schema changes stay with the owner:
-- run `photomap db migrate` as the owner after each upgrade; the tables it makes then are the role's
-- to read and write too (the default privileges below).
\set ON_ERROR_STOP on

CREATE ROLE :"role" LOGIN PASSWORD :'password';
GRANT CONNECT, TEMPORARY ON DATABASE :"DBNAME" TO :"role";
GRANT USAGE ON SCHEMA public TO :"role";
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO :"role";
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO :"role";
-- Tables and sequences a later migration makes, run by the database's owner: the same rights, no more.
SELECT pg_get_userbyid(datdba) AS owner FROM pg_database WHERE datname = current_database() \gset
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" IN SCHEMA public
    GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO :"role";
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" IN SCHEMA public GRANT USAGE ON SEQUENCES TO :"role";
-- No CREATE on the schema: since PostgreSQL 15 the public schema grants it to no one but its owner;
-- on an older server, take it back from everyone.
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
