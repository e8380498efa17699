import { checkPodTemplate } from './core-pod.js';
import type { FieldPath } from './field-path.js';
import type { Manifest } from './manifest.js';
import type { Problem } from './problem.js';
import { checkCronSchedule } from './cron-schedule.js';
import { checkTimeZone } from './time-zone.js';
import { invalid, nonNegative, notOneOf, push, rec, required, str } from './validation-kit.js';

/**
 * Job and CronJob (batch/v1), as the API server validates them.
 *
 * Mirrors (v1.34) k8s.io/kubernetes pkg/apis/batch/validation/validation.go: `validateJobSpec` (`parallelism`,
 * `completions`, `activeDeadlineSeconds` (0 is taken), `backoffLimit`, `ttlSecondsAfterFinished` not negative;
 * `completionMode`), `validatePodTemplateSpec…` of a Job (`restartPolicy` OnFailure or Never, the template checked
 * as the Pod it becomes: src/rules/core-pod.ts), `ValidateCronJobSpec` (`schedule` parsed as
 * `cron.ParseStandard` parses it, no `TZ=` in it: src/rules/cron-schedule.ts; `timeZone` a zone of the tz
 * database: src/rules/time-zone.ts; `concurrencyPolicy`,
 * `startingDeadlineSeconds`, the history limits; the job template as a Job's spec) and the CronJob name limit of
 * 52 characters (its Jobs add 11). Pure.
 */

/** The longest CronJob name: its Jobs are named `<name>-<minutes since epoch>`, at most 63 characters. */
const CRONJOB_NAME_MAX = 52;

export function validateJob(o: Manifest, out: Problem[]): void {
  checkJobSpec(['spec'], rec(o.spec) ?? {}, true, out);
}

export function validateCronJob(o: Manifest, out: Problem[]): void {
  const name = str(o.metadata?.name);
  if (name !== undefined && name.length > CRONJOB_NAME_MAX)
    out.push(
      invalid(
        ['metadata', 'name'],
        `a CronJob name of at most ${CRONJOB_NAME_MAX} characters (its Jobs add 11)`,
        name,
      ),
    );
  const spec = rec(o.spec) ?? {};
  const schedule = str(spec.schedule);
  if (schedule === undefined || schedule === '')
    out.push(required(['spec', 'schedule'], 'a cron schedule such as "0 3 * * *"'));
  else for (const p of checkCronSchedule(['spec', 'schedule'], schedule)) out.push(p);
  checkTimeZone(['spec', 'timeZone'], spec.timeZone, out);
  push(out, notOneOf(['spec'], 'concurrencyPolicy', spec.concurrencyPolicy, ['Allow', 'Forbid', 'Replace']));
  nonNegative(out, ['spec'], 'startingDeadlineSeconds', spec.startingDeadlineSeconds);
  nonNegative(out, ['spec'], 'successfulJobsHistoryLimit', spec.successfulJobsHistoryLimit);
  nonNegative(out, ['spec'], 'failedJobsHistoryLimit', spec.failedJobsHistoryLimit);
  const job = rec(spec.jobTemplate);
  if (job === undefined) out.push(required(['spec', 'jobTemplate'], 'a job template'));
  else checkJobSpec(['spec', 'jobTemplate', 'spec'], rec(job.spec) ?? {}, false, out);
}

/** A Job's spec; `defaulted` for a Job itself, whose completions and parallelism the API server defaults. */
function checkJobSpec(path: FieldPath, spec: Manifest, defaulted: boolean, out: Problem[]): void {
  for (const field of [
    'parallelism',
    'completions',
    'backoffLimit',
    'ttlSecondsAfterFinished',
    'activeDeadlineSeconds',
  ])
    nonNegative(out, path, field, spec[field]);
  push(out, notOneOf(path, 'completionMode', spec.completionMode, ['NonIndexed', 'Indexed']));
  if (spec.completionMode === 'Indexed') checkIndexed(path, spec, defaulted, out);
  checkPodTemplate([...path, 'template'], spec.template, out);
  const policy = rec(rec(spec.template)?.spec)?.restartPolicy;
  if (policy !== 'OnFailure' && policy !== 'Never')
    out.push(
      policy === undefined
        ? required(
            [...path, 'template', 'spec', 'restartPolicy'],
            "OnFailure or Never (a Job's pods end; Always is the default)",
          )
        : invalid(
            [...path, 'template', 'spec', 'restartPolicy'],
            "OnFailure or Never (a Job's pods end)",
            policy,
          ),
    );
}

/**
 * An Indexed Job needs completions. Unset together on a Job, completions and parallelism are defaulted to 1 (v1
 * `SetDefaults_Job`), which a CronJob's job template does not get.
 */
function checkIndexed(path: FieldPath, spec: Manifest, defaulted: boolean, out: Problem[]): void {
  if (spec.completions === undefined && (!defaulted || spec.parallelism !== undefined))
    out.push(required([...path, 'completions'], 'completions (an Indexed Job needs them)'));
}
