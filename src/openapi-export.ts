/**
 * The committed OpenAPI document (docs/integrating.md): `npm run openapi` writes `openapi.json` and the
 * typed client's `clients/typescript/src/schema.ts` from it (scripts/openapi.js), and CI fails
 * when either is stale. The document is built from the same modules and the same builder as the
 * one the API serves at /docs-json, with Nest's preview mode: controllers and their metadata are
 * read, no provider is instantiated, so neither PostgreSQL nor Redis is needed.
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import { AppModule } from './app.module';
import { buildOpenApiDocument } from './common/swagger/openapi';
import { loadConfig } from './config/config';

/** The server the committed document names (what `npm start` serves). */
export const COMMITTED_SERVER_URL = 'http://localhost:3000';

export async function committedOpenApiDocument(): Promise<OpenAPIObject> {
  // Placeholders only: in preview mode nothing connects or reads a secret.
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: 'postgres://127.0.0.1:5432/openapi-preview',
    PUBLIC_BASE_URL: COMMITTED_SERVER_URL,
  });
  const app = await NestFactory.create(AppModule.register(config), new FastifyAdapter(), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  return buildOpenApiDocument(app, COMMITTED_SERVER_URL);
}
