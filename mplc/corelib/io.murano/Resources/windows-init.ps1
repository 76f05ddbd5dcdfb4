# Writes the Murano agent's configuration and restarts the agent service.
$AgentConfig = [System.Text.Encoding]::UTF8.GetString([System.Convert]::FromBase64String("%AGENT_CONFIG_BASE64%"))
Set-Content -Path "C:\Murano\Agent\WindowsAgent.exe.config" -Value $AgentConfig
Rename-Computer -NewName "%INTERNAL_HOSTNAME%" -Force
Write-Output "murano server: %MURANO_SERVER_ADDRESS%"
Restart-Service -Name "Murano Agent"
