curl -sS --fail-with-body -X POST "$FORMS_API_BASE_URL/open/workspaces/create" \
  -H "Authorization: Bearer $FORMS_API_TOKEN" -H 'Accept: application/json' \
  -H 'Content-Type: application/json' \
  -d '{"name": "Design Team", "emoji": "🎨"}'
