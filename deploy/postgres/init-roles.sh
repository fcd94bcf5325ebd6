#!/usr/bin/env bash
# The service's database and its two roles (docs/operations.md, "Database roles"):
#
# - CHECKIN_OWNER (default checkin_owner) owns the database and its schema: the migration job
#   connects as it, and only the migration job does.
# - CHECKIN_APP_USER (default checkin_app) reads and writes rows: the API and the worker connect
#   as it. It cannot create, alter or drop anything, nor truncate a table.
#
# compose.production.yml runs it once, as PostgreSQL's superuser, when the data volume is new (the
# postgres image runs /docker-entrypoint-initdb.d/*.sh). It can also be run by hand against an
# existing server, as a superuser, to move a database to these roles: it is idempotent, and
# grants the read/write role the tables that exist already.
#
#   CHECKIN_OWNER_PASSWORD=… CHECKIN_APP_PASSWORD=… POSTGRES_USER=postgres bash init-roles.sh
set -euo pipefail

: "${CHECKIN_OWNER_PASSWORD:?set CHECKIN_OWNER_PASSWORD}"
: "${CHECKIN_APP_PASSWORD:?set CHECKIN_APP_PASSWORD}"

psql -v ON_ERROR_STOP=1 --no-psqlrc --quiet \
  --username "${POSTGRES_USER:-postgres}" --dbname "${POSTGRES_DB:-postgres}" \
  -v db="${CHECKIN_DB:-checkin}" \
  -v owner="${CHECKIN_OWNER:-checkin_owner}" \
  -v owner_password="$CHECKIN_OWNER_PASSWORD" \
  -v app="${CHECKIN_APP_USER:-checkin_app}" \
  -v app_password="$CHECKIN_APP_PASSWORD" <<'SQL'
-- The roles: logins, with no power over the server.
SELECT format('CREATE ROLE %I', :'owner')
  WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'owner') \gexec
ALTER ROLE :"owner" LOGIN PASSWORD :'owner_password' NOSUPERUSER NOCREATEDB NOCREATEROLE;
SELECT format('CREATE ROLE %I', :'app')
  WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'app') \gexec
ALTER ROLE :"app" LOGIN PASSWORD :'app_password' NOSUPERUSER NOCREATEDB NOCREATEROLE;

-- The database, owned by the owner role; the read/write role may connect (and make the
-- temporary tables a session may need), nobody else.
SELECT format('CREATE DATABASE %I OWNER %I', :'db', :'owner')
  WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = :'db') \gexec
ALTER DATABASE :"db" OWNER TO :"owner";
REVOKE ALL ON DATABASE :"db" FROM PUBLIC;
GRANT CONNECT, TEMPORARY ON DATABASE :"db" TO :"app";

\connect :"db"
-- The schema: the owner creates in it; the read/write role only uses it.
ALTER SCHEMA public OWNER TO :"owner";
REVOKE ALL ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO :"app";
-- Rows of every table the owner creates from now on (each migration), and of those that exist.
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" IN SCHEMA public
  GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO :"app";
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" IN SCHEMA public
  GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO :"app";
-- A database that has its schema already (made before these roles, e.g. by 0.1.0's compose, where
-- the superuser owns everything): its tables, with their sequences and indexes, and its functions
-- pass to the owner role.
SELECT format('ALTER TABLE public.%I OWNER TO %I', tablename, :'owner')
  FROM pg_tables WHERE schemaname = 'public' AND tableowner <> :'owner' \gexec
SELECT format('ALTER FUNCTION %s OWNER TO %I', p.oid::regprocedure, :'owner')
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
  WHERE n.nspname = 'public' AND pg_get_userbyid(p.proowner) <> :'owner' \gexec
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO :"app";
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO :"app";
SQL
