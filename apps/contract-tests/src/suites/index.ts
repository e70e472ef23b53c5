// Every operation suite, in the order the report lists them.
import { suite as listWorkspaceForms } from './list-workspace-forms.js';
import { suite as getForm } from './get-form.js';
import { suite as listFormSubmissions } from './list-form-submissions.js';
import { suite as updateFormSubmission } from './update-form-submission.js';
import { suite as downloadSubmissionFile } from './download-submission-file.js';
import { suite as listFormIntegrations } from './list-form-integrations.js';
import { suite as createFormIntegration } from './create-form-integration.js';
import { suite as updateFormIntegration } from './update-form-integration.js';
import { suite as deleteFormIntegration } from './delete-form-integration.js';
import { suite as listIntegrationEvents } from './list-integration-events.js';
import { suite as createFormAnswer } from './create-form-answer.js';
import type { OperationSuite } from './types.js';

export const allSuites: OperationSuite[] = [
  listWorkspaceForms,
  getForm,
  listFormSubmissions,
  updateFormSubmission,
  downloadSubmissionFile,
  listFormIntegrations,
  createFormIntegration,
  updateFormIntegration,
  deleteFormIntegration,
  listIntegrationEvents,
  createFormAnswer,
];
