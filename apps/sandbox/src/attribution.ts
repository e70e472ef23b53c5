// The campaign parameters a submission's attribution may hold: what the public answer keeps (observed)
// and what the export takes as `meta.attribution.<parameter>` columns (the spec names both).
/** SubmissionAttribution.php:9-26: the campaign parameters the service keeps. */
export const ATTRIBUTION_PARAMETERS: readonly string[] = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_id',
  'utm_term',
  'utm_content',
  'utm_source_platform',
  'utm_creative_format',
  'utm_marketing_tactic',
  'gclid',
  'gbraid',
  'wbraid',
  'dclid',
  'fbclid',
  'ttclid',
  'msclkid',
];
