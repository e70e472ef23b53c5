curl -sS --fail-with-body -X POST "$FORMS_API_BASE_URL/open/forms" \
  -H "Authorization: Bearer $FORMS_API_TOKEN" -H 'Accept: application/json' \
  -H 'Content-Type: application/json' \
  -d '{"workspace_id": 1, "title": "Contact Form", "visibility": "public", "language": "en",
       "theme": "default", "presentation_style": "classic", "width": "centered", "size": "md",
       "border_radius": "small", "dark_mode": "auto", "color": "#3B82F6", "uppercase_labels": false,
       "no_branding": false, "transparent_background": false,
       "properties": [
         {"id": "3700d380-197b-47b9-a008-3acc31bbd506", "name": "Name", "type": "text", "required": true},
         {"id": "a1f4c8e2-5b7d-4e09-9c3a-2f6e8d1b4a70", "name": "Email", "type": "email", "required": true}]}'
