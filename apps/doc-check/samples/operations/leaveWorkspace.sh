curl -sS --fail-with-body -X POST "$FORMS_API_BASE_URL/open/workspaces/$FORMS_WORKSPACE_ID/leave" \
  -H "Authorization: Bearer $FORMS_API_TOKEN" -H 'Accept: application/json'
