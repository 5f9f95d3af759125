import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as v from 'valibot';
import { invalid, ServiceError } from '#shared/errors';
import { viewerOf } from '#shared/http/distribution';

/** What handlers see of a request: payload 2.0 normalised, header names lowercased. */
export interface HttpRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  query: Record<string, string>;
  pathParameters: Record<string, string>;
  cookies: Record<string, string>;
  body: Buffer | undefined;
  /**
   * The client's address, as per-address limits count it: the viewer's when the request came
   * through the stack's distribution (verified: `http/distribution.ts`), else the connection's.
   */
  sourceIp: string;
  requestId: string;
  /** True when the client reached the service over HTTPS (always in AWS). */
  secure: boolean;
}

/** Headers and cookies together (API Gateway itself stops at about 10 KB). */
export const MAX_HEADER_BYTES = 16 * 1024;
export const MAX_QUERY_BYTES = 4096;
export const MAX_QUERY_PARAMETERS = 32;

/** The body's limit, and what to say to a client over it (the ways that take more), if anything. */
export interface BodyLimit {
  bytes: number;
  beyond?: string;
}

export function toHttpRequest(event: APIGatewayProxyEventV2, bodyLimit: BodyLimit): HttpRequest {
  const headers: Record<string, string> = Object.create(null);
  let headerBytes = 0;
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value === undefined) continue;
    headerBytes += name.length + value.length;
    headers[name.toLowerCase()] = value;
  }
  for (const cookie of event.cookies ?? []) headerBytes += cookie.length;
  if (headerBytes > MAX_HEADER_BYTES) throw new ServiceError('too_large', 'request headers are too large');
  const query = copyDefined(event.queryStringParameters);
  if ((event.rawQueryString ?? '').length > MAX_QUERY_BYTES) throw invalid('query string is too long');
  if (Object.keys(query).length > MAX_QUERY_PARAMETERS) throw invalid('too many query parameters');

  const sourceIp = viewerOf(headers, event.requestContext.http.sourceIp);
  const body = decodeBody(event, bodyLimit);
  const forwardedProto = headers['x-forwarded-proto'];
  return {
    method: event.requestContext.http.method.toUpperCase(),
    path: event.rawPath,
    headers,
    query,
    pathParameters: copyDefined(event.pathParameters),
    cookies: parseCookies(event.cookies ?? (headers.cookie ? [headers.cookie] : [])),
    body,
    sourceIp,
    requestId: event.requestContext.requestId,
    secure: forwardedProto === undefined ? true : forwardedProto === 'https',
  };
}

function copyDefined(source: Record<string, string | undefined> | undefined): Record<string, string> {
  const copy: Record<string, string> = Object.create(null);
  for (const [key, value] of Object.entries(source ?? {})) if (value !== undefined) copy[key] = value;
  return copy;
}

function decodeBody(event: APIGatewayProxyEventV2, { bytes: limit, beyond }: BodyLimit): Buffer | undefined {
  if (event.body === undefined || event.body === null || event.body === '') return undefined;
  const tooLarge = () =>
    new ServiceError(
      'too_large',
      `request body is too large: the limit is ${limit} bytes${beyond ? `; ${beyond}` : ''}`,
    );
  // Refuse a body certainly over the limit before decoding it: base64 decodes to at least 3/4 of its
  // length less two padding bytes.
  const leastSize = event.isBase64Encoded
    ? Math.floor((event.body.length * 3) / 4) - 2
    : Buffer.byteLength(event.body);
  if (leastSize > limit) throw tooLarge();
  const body = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
  if (body.length > limit) throw tooLarge();
  return body;
}

/**
 * Payload 2.0 delivers cookies as separate `name=value` strings; a raw `Cookie` header (sam local)
 * separates them with `;`. Never split on commas: values may contain them.
 */
export function parseCookies(parts: string[]): Record<string, string> {
  const cookies: Record<string, string> = Object.create(null);
  for (const part of parts) {
    for (const pair of part.split(';')) {
      const separator = pair.indexOf('=');
      if (separator <= 0) continue;
      const name = pair.slice(0, separator).trim();
      // The first occurrence wins, as browsers send the most specific cookie first.
      if (name && !(name in cookies)) cookies[name] = pair.slice(separator + 1).trim();
    }
  }
  return cookies;
}

export const MAX_JSON_DEPTH = 16;

/**
 * Keys that could reach an object's prototype if parsed data were ever merged into another object:
 * refused at any depth, whatever the route's schema, so no later code has to think about them.
 */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Parses a JSON object body and validates it; every failure is a 400 with a readable message. */
export function readJson<const TSchema extends v.GenericSchema>(
  request: HttpRequest,
  schema: TSchema,
): v.InferOutput<TSchema> {
  const contentType = request.headers['content-type'];
  if (contentType !== undefined && !/^application\/json\s*(;|$)/i.test(contentType)) {
    throw new ServiceError('unsupported_media_type', 'content-type must be application/json');
  }
  if (request.body === undefined) throw invalid('a JSON body is required');
  const text = request.body.toString('utf8');
  if (jsonDepth(text) > MAX_JSON_DEPTH) throw invalid('JSON body is nested too deeply');
  let parsed: unknown;
  let unsafeKey: string | undefined;
  try {
    parsed = JSON.parse(text, (key, value) => {
      if (UNSAFE_KEYS.has(key)) unsafeKey = key;
      return value;
    });
  } catch {
    throw invalid('body is not valid JSON');
  }
  if (unsafeKey !== undefined) throw invalid(`${unsafeKey}: property name is not allowed`);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw invalid('body must be a JSON object');
  }
  return validate(schema, parsed);
}

/**
 * Parses an HTML form's body (`application/x-www-form-urlencoded`, what a `<form method="post">`
 * sends) and validates its fields; a repeated field keeps its last value. 415 for another type.
 */
export function readForm<const TSchema extends v.GenericSchema>(
  request: HttpRequest,
  schema: TSchema,
): v.InferOutput<TSchema> {
  const contentType = request.headers['content-type'];
  if (contentType === undefined || !/^application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType)) {
    throw new ServiceError(
      'unsupported_media_type',
      'content-type must be application/x-www-form-urlencoded',
    );
  }
  const fields = Object.fromEntries(new URLSearchParams(request.body?.toString('utf8') ?? ''));
  return validate(schema, fields);
}

export function validate<const TSchema extends v.GenericSchema>(
  schema: TSchema,
  input: unknown,
): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const path = v.getDotPath(issue);
  if (path && isMissingKey(issue)) throw invalid(`${path} is required`);
  throw invalid(path ? `${path}: ${issue.message}` : issue.message);
}

const OBJECT_TYPES = new Set(['object', 'strict_object', 'loose_object']);

/** An object schema's issue for a required key the input lacks (valibot reports it on the key's path). */
function isMissingKey(issue: v.BaseIssue<unknown>): boolean {
  return OBJECT_TYPES.has(issue.type) && issue.received === 'undefined' && issue.input === undefined;
}

/** Maximum nesting of arrays and objects, counted without parsing (brackets inside strings ignored). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 92) i++;
      else if (char === 34) inString = false;
    } else if (char === 34) inString = true;
    else if (char === 123 || char === 91) deepest = Math.max(deepest, ++depth);
    else if (char === 125 || char === 93) depth--;
  }
  return deepest;
}
