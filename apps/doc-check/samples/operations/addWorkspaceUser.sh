curl -sS --fail-with-body -X POST "$FORMS_API_BASE_URL/open/workspaces/1/users/add" \
  -H "Authorization: Bearer $FORMS_API_TOKEN" -H 'Accept: application/json' \
  -H 'Content-Type: application/json' \
  -d '{"email": "sam@example.com", "role": "readonly"}'
