@problemName Gestures
@missing true
@univariate false
@dimensions 3
@equalLength false
@classLabel true 1 2 3
@data
1.5,?,2:0,0,0:-1,NaN,1:2
# a comment between cases
0.1:0.2:0.3:3

7,8,9,10,11:1,2,3,4,5:5,4,3,2,1:1
