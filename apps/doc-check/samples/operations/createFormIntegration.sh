curl -sS --fail-with-body -X POST "$FORMS_API_BASE_URL/open/forms/11/integrations" \
  -H "Authorization: Bearer $FORMS_API_TOKEN" -H 'Accept: application/json' \
  -H 'Content-Type: application/json' \
  -d "{\"integration_id\": \"webhook\", \"status\": \"active\", \"data\": {\"webhook_url\": \"$RECEIVER_URL\", \"webhook_secret\": \"$FORMS_WEBHOOK_SECRET\"}}"
