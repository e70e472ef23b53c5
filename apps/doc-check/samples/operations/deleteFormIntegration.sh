curl -sS --fail-with-body -X DELETE "$FORMS_API_BASE_URL/open/forms/11/integrations/$FORMS_INTEGRATION_ID" \
  -H "Authorization: Bearer $FORMS_API_TOKEN" -H 'Accept: application/json'
