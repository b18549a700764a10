@problemName Gesturebel true è 2 3
@data
# a 9,10:5,‘4,3,2 c:1
