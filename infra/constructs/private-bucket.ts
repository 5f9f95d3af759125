import { RemovalPolicy } from 'aws-cdk-lib';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type BucketProps,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';

export interface PrivateBucketProps extends Omit<BucketProps, 'removalPolicy' | 'autoDeleteObjects'> {
  /** Keep the bucket and its objects when the stack is deleted. */
  retain: boolean;
}

/**
 * The service's buckets are reached only through its grants, presigned URLs and CloudFront's origin
 * access: public access blocked, ACLs off (the bucket owns every object), S3-managed encryption, TLS
 * only. One place for these, so no bucket can be added without them.
 */
export function privateBucket(scope: Construct, id: string, props: PrivateBucketProps): Bucket {
  const { retain, ...rest } = props;
  return new Bucket(scope, id, {
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
    encryption: BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    removalPolicy: retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    // CloudFormation cannot delete a bucket that holds objects: without retention, empty it first.
    autoDeleteObjects: !retain,
    ...rest,
  });
}
