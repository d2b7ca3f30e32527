#!/bin/sh
cat /proc/systemtap/*/__prometheus
