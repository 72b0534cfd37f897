import django.utils.timezone
from django.db import migrations, models


def claimed_when_sent(apps, schema_editor):
    # Every notice so far was claimed and sent in the same moment.
    Notice = apps.get_model("rummy", "Notice")
    Notice.objects.update(claimed_at=models.F("sent_at"))


class Migration(migrations.Migration):
    dependencies = [
        ("rummy", "0011_job_key"),
    ]

    operations = [
        migrations.AddField(
            model_name="notice",
            name="claimed_at",
            field=models.DateTimeField(auto_now_add=True, default=django.utils.timezone.now),
            preserve_default=False,
        ),
        migrations.RunPython(claimed_when_sent, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="notice",
            name="sent_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
