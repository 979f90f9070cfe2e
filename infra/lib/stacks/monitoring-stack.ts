/**
 * Monitoring: the one SNS topic every alarm of the stage notifies (`<prefix>-alarms`, found by name
 * by the other stacks' alarms), its KMS key, and the operator's e-mail subscription when
 * `alarmEmail` is set. Deployed before the stacks whose alarms notify it (infra/lib/alarms.ts).
 *
 * The topic is encrypted with a key of its own: CloudWatch may only publish to an encrypted topic
 * when the key's policy lets it use the key, which the AWS-managed `alias/aws/sns` key never does
 * (the alarms would change state and notify nobody).
 */
import { Aws, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import type { MarketConfig } from '../config';
import { alarmTopicName, resourceNames } from '../names';

export interface MonitoringStackProps extends StackProps {
  config: MarketConfig;
}

export class MonitoringStack extends Stack {
  readonly topic: sns.Topic;
  readonly key: kms.Key;

  constructor(scope: Construct, id: string, props: MonitoringStackProps) {
    super(scope, id, props);
    const { config } = props;
    const names = resourceNames(config);

    // CloudWatch acts for this account's alarms of this stage only (aws:SourceArn), so no other
    // account's alarm, nor another stage's, can publish here or use the key.
    const fromTheseAlarms = {
      StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
      ArnLike: {
        'aws:SourceArn': `arn:${Aws.PARTITION}:cloudwatch:${Aws.REGION}:${Aws.ACCOUNT_ID}:alarm:${names.prefix}-*`,
      },
    };
    const cloudWatch = new iam.ServicePrincipal('cloudwatch.amazonaws.com');

    this.key = new kms.Key(this, 'AlarmTopicKey', {
      description: `Encrypts the alarm notifications of ${names.prefix}`,
      enableKeyRotation: true,
      // It only protects notifications in flight: nothing to keep once the stack is gone.
      removalPolicy: RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(7),
    });
    this.key.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'CloudWatchAlarmsEncrypt',
        principals: [cloudWatch],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: fromTheseAlarms,
      }),
    );

    this.topic = new sns.Topic(this, 'AlarmTopic', {
      topicName: alarmTopicName(config),
      displayName: `Marketplace ${config.stage} alarms`,
      masterKey: this.key,
      enforceSSL: true,
    });
    // The topic policy CDK writes for enforceSSL replaces SNS's default one: CloudWatch is let in
    // explicitly.
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [cloudWatch],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: fromTheseAlarms,
      }),
    );
    if (config.alarmEmail !== undefined) {
      this.topic.addSubscription(new subscriptions.EmailSubscription(config.alarmEmail));
    }

    new CfnOutput(this, 'AlarmTopicArn', { value: this.topic.topicArn });
  }
}
