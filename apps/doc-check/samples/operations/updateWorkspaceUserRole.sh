curl -sS --fail-with-body -X PUT "$FORMS_API_BASE_URL/open/workspaces/1/users/4/update-role" \
  -H "Authorization: Bearer $FORMS_API_TOKEN" -H 'Accept: application/json' \
  -H 'Content-Type: application/json' \
  -d '{"role": "readonly"}'
