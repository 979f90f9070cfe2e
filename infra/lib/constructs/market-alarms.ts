/**
 * The alarms of one stack, made alike: named `<prefix>-<name>`, missing data treated as not
 * breaching (most of the metrics watched here only exist while something goes wrong: no errors,
 * no data), and the alarm topic told on ALARM and on OK, so a notification is always followed by
 * the one saying it is over.
 *
 * The topic is the monitoring stack's, found by its name (names.ts `alarmTopicArn`): an alarm lives
 * in the stack of what it watches and no stack exports anything for it. infra/lib/alarms.ts says
 * which alarms there are.
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import type { MarketConfig } from '../config';
import { alarmTopicArn, pascalId, resourceNames } from '../names';

/** CloudWatch refuses an alarm whose metric math reads more than 10 metrics. */
export const MAX_ALARM_METRICS = 10;

/** How the alarms add up what they watch, unless an alarm says otherwise. */
export const ALARM_PERIOD = Duration.minutes(5);

export interface MarketAlarmProps {
  /** Kebab-case, unique in the stage: the alarm is named `<prefix>-<name>`. */
  name: string;
  metric: cloudwatch.IMetric;
  /** What went wrong and the first thing to do: the text of the notification. */
  description: string;
  /** Default 1 (with the default operator: the first occurrence). */
  threshold?: number;
  /** Default: greater than or equal to the threshold. */
  comparisonOperator?: cloudwatch.ComparisonOperator;
  /** Default 1. */
  evaluationPeriods?: number;
  /** Default: all the evaluation periods. */
  datapointsToAlarm?: number;
}

export interface MarketAlarmsProps {
  config: Pick<MarketConfig, 'appName' | 'stage'>;
  /** The topic itself, in the stack that creates it; elsewhere it is found by name. */
  topic?: sns.ITopic;
}

export class MarketAlarms extends Construct {
  readonly alarms: cloudwatch.Alarm[] = [];
  private readonly action: cloudwatch.IAlarmAction;
  private readonly prefix: string;

  constructor(scope: Construct, id: string, props: MarketAlarmsProps) {
    super(scope, id);
    this.prefix = resourceNames(props.config).prefix;
    const topic = props.topic ?? sns.Topic.fromTopicArn(this, 'Topic', alarmTopicArn(props.config));
    this.action = new actions.SnsAction(topic);
  }

  add(props: MarketAlarmProps): cloudwatch.Alarm {
    const evaluationPeriods = props.evaluationPeriods ?? 1;
    const alarm = new cloudwatch.Alarm(this, pascalId(props.name), {
      alarmName: `${this.prefix}-${props.name}`,
      alarmDescription: props.description,
      metric: props.metric,
      threshold: props.threshold ?? 1,
      comparisonOperator:
        props.comparisonOperator ??
        cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods,
      datapointsToAlarm: props.datapointsToAlarm ?? evaluationPeriods,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(this.action);
    alarm.addOkAction(this.action);
    this.alarms.push(alarm);
    return alarm;
  }
}

/**
 * The sum of several metrics, per period, as one alarm reads it. `SUM([...])` adds up the metrics
 * that have a value at each time: the errors of one function count even while the others report
 * nothing (an `m0 + m1` expression has no value where one of them has none, and these metrics are
 * sparse). At most MAX_ALARM_METRICS, as CloudWatch allows in an alarm.
 */
export function sumOf(
  label: string,
  metrics: readonly cloudwatch.IMetric[],
  period: Duration = ALARM_PERIOD,
): cloudwatch.MathExpression {
  if (metrics.length === 0 || metrics.length > MAX_ALARM_METRICS) {
    throw new Error(
      `${label}: an alarm reads 1 to ${MAX_ALARM_METRICS} metrics, not ${metrics.length}`,
    );
  }
  const usingMetrics = Object.fromEntries(metrics.map((metric, index) => [`m${index}`, metric]));
  return new cloudwatch.MathExpression({
    expression: `SUM([${Object.keys(usingMetrics).join(', ')}])`,
    usingMetrics,
    label,
    period,
  });
}
