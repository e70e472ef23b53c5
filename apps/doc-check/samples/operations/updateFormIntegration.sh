curl -sS --fail-with-body -X PUT "$FORMS_API_BASE_URL/open/forms/11/integrations/$FORMS_INTEGRATION_ID" \
  -H "Authorization: Bearer $FORMS_API_TOKEN" -H 'Accept: application/json' \
  -H 'Content-Type: application/json' \
  -d "{\"integration_id\": \"webhook\", \"status\": \"inactive\", \"data\": {\"webhook_url\": \"$RECEIVER_URL\", \"webhook_secret\": \"$FORMS_WEBHOOK_SECRET\"}}"
