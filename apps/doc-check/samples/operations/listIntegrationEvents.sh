curl -sS --fail-with-body "$FORMS_API_BASE_URL/open/forms/11/integrations/$FORMS_INTEGRATION_ID/events" \
  -H "Authorization: Bearer $FORMS_API_TOKEN" -H 'Accept: application/json'
