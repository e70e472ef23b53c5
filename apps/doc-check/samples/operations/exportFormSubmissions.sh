# Up to 1,000 submissions: the CSV (more answer a background job a token cannot follow).
curl -sS --fail-with-body -X POST "$FORMS_API_BASE_URL/open/forms/11/submissions/export" \
  -H "Authorization: Bearer $FORMS_API_TOKEN" -H 'Accept: text/csv, application/json' \
  -H 'Content-Type: application/json' \
  -d "{\"columns\": {\"$NAME_FIELD_ID\": true, \"$EMAIL_FIELD_ID\": true, \"created_at\": true}}"
