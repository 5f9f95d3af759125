import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  type AttributeType,
  BillingMode,
  ProjectionType,
  StreamViewType,
  Table,
} from 'aws-cdk-lib/aws-dynamodb';
import { HttpMethods } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { type IndexDefinition, type KeyAttribute, tableDefinition } from '#shared/db/table';
import { EXPORT_DAYS, EXPORT_REQUEST_PREFIX } from '#shared/exports/model';
import { PENDING_TAG, UPLOAD_LEFTOVERS_DAYS } from '#shared/files/layout';
import { privateBucket } from './constructs/private-bucket.ts';

const attribute = (key: KeyAttribute) => ({ name: key.name, type: key.type as AttributeType });

function projection(index: IndexDefinition) {
  if (index.projection === 'ALL') return { projectionType: ProjectionType.ALL };
  if (index.projection === 'KEYS_ONLY') return { projectionType: ProjectionType.KEYS_ONLY };
  return { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: index.projection };
}

/**
 * The service's data: the table from the shared definition and the files bucket, with the bucket of
 * their S3 access logs. Created in the parent stack under the same construct ids as ever, so their
 * logical ids (and with them the resources) survive every change of layout (docs/deploy.md).
 */
export function serviceStorage(scope: Construct, retainData: boolean) {
  const dataRemovalPolicy = retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
  const table = new Table(scope, 'Table', {
    partitionKey: attribute(tableDefinition.partitionKey),
    sortKey: attribute(tableDefinition.sortKey),
    billingMode: BillingMode.PAY_PER_REQUEST,
    timeToLiveAttribute: tableDefinition.timeToLiveAttribute,
    stream: StreamViewType[tableDefinition.stream],
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    deletionProtection: retainData,
    removalPolicy: dataRemovalPolicy,
  });
  for (const index of tableDefinition.globalIndexes) {
    table.addGlobalSecondaryIndex({
      indexName: index.name,
      partitionKey: attribute(index.partitionKey),
      sortKey: attribute(index.sortKey),
      ...projection(index),
    });
  }

  // File bytes: private, encrypted, TLS only; objects of presigned uploads that never became a
  // file (still tagged `upload=pending`) expire after a day, as does what earlier versions left
  // under `uploads/`.
  // S3 server access logs of both buckets (who read or wrote which object, when), kept 90 days.
  const accessLogBucket = privateBucket(scope, 'AccessLogs', {
    retain: retainData,
    lifecycleRules: [{ id: 'ExpireAccessLogs', expiration: Duration.days(90) }],
  });
  const files = privateBucket(scope, 'Files', {
    retain: retainData,
    serverAccessLogsBucket: accessLogBucket,
    serverAccessLogsPrefix: 'files/',
    lifecycleRules: [
      // A chunked upload's S3 multipart upload and staged chunks outlive its longest session.
      {
        id: 'AbortIncompleteMultipartUploads',
        abortIncompleteMultipartUploadAfter: Duration.days(UPLOAD_LEFTOVERS_DAYS),
      },
      {
        id: 'ExpireAbandonedUploads',
        prefix: 'uploads/',
        expiration: Duration.days(UPLOAD_LEFTOVERS_DAYS),
      },
      // Exports (issue 36): a zip is listed for EXPORT_DAYS after it completed (the table's TTL and
      // the listing's filter), and S3 deletes it then too; what a run left of its request, a day on.
      { id: 'ExpireExports', prefix: 'exports/', expiration: Duration.days(EXPORT_DAYS) },
      { id: 'ExpireExportRequests', prefix: EXPORT_REQUEST_PREFIX, expiration: Duration.days(1) },
      {
        id: 'ExpirePendingUploads',
        tagFilters: { [PENDING_TAG.Key]: PENDING_TAG.Value },
        expiration: Duration.days(1),
      },
    ],
    // Browsers PUT to presigned upload URLs and follow download redirects.
    cors: [
      {
        allowedOrigins: ['*'],
        allowedMethods: [HttpMethods.PUT, HttpMethods.GET, HttpMethods.HEAD],
        allowedHeaders: ['*'],
        maxAge: 3600,
      },
    ],
  });

  return { table, accessLogBucket, files };
}
